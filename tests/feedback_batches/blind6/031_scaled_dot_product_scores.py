import torch


def scaled_dot_product_scores(queries, keys):
    # scale the queries first: (q / sqrt(d)) . k == (q . k) / sqrt(d)
    scale = keys.shape[-1] ** -0.5
    return torch.einsum("...qd,...kd->...qk", queries * scale, keys)
