import torch


def scaled_dot_product_scores(queries, keys):
    scale = keys.size(-1) ** -0.5
    return torch.matmul(queries * scale, keys.mT)
