import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[1]  # keys: (T_k, d_k)
    return queries @ keys.transpose(-2, -1) / torch.sqrt(torch.tensor(d_k))
