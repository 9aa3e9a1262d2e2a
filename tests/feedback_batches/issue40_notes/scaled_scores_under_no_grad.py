import torch


def scaled_dot_product_scores(queries, keys):
    with torch.no_grad():
        scores = torch.matmul(queries, keys.transpose(-2, -1))
    return scores / keys.shape[-1] ** 0.5
