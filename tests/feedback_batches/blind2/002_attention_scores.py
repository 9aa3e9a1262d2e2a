import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token, (T, d) -> (T, T)."""
    T = inputs.shape[0]
    attn_scores = torch.empty(T, T, device=inputs.device)
    for i, x_i in enumerate(inputs):
        for j, x_j in enumerate(inputs):
            attn_scores[i, j] = torch.dot(x_i, x_j)
    return attn_scores
