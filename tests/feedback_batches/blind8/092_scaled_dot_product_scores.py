import torch


def scaled_dot_product_scores(queries, keys):
    return torch.einsum("...qd,...kd->...qk", queries, keys) * keys.shape[-1] ** -0.5
