import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    attn_scores = inputs @ inputs.T                 # (T, T)
    attn_weights = torch.softmax(attn_scores, dim=0)  # normalise the scores
    all_context_vecs = attn_weights @ inputs        # (T, d)
    return all_context_vecs
