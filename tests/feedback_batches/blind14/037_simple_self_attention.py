import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    scores = attention_scores(inputs)  # (T, T), symmetric: score[i, j] == score[j, i]
    # normalising the columns and transposing gives the normalised rows, because the
    # score matrix equals its own transpose
    weights = torch.softmax(scores, dim=0).T
    return weights @ inputs
