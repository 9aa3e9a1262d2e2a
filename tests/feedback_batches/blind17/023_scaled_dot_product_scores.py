import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-1]
    scores = torch.bmm(queries, keys.transpose(1, 2))  # batched matrix product
    return scores * d_k ** 0.5
