import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.size(-1)
    quarter = d_k ** -0.25  # sqrt(d_k) split evenly between the two factors
    return torch.matmul(queries * quarter, (keys * quarter).transpose(-1, -2))
