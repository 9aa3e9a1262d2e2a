import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.size(-1)
    # every query against every key: (..., T_q, 1, d_k) . (..., 1, T_k, d_k) -> (..., T_q, T_k)
    scores = torch.linalg.vecdot(queries.unsqueeze(-2), keys.unsqueeze(-3))
    return scores * d_k ** -0.5
