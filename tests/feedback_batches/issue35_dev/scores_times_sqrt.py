import math


def scaled_dot_product_scores(queries, keys):
    return torch.matmul(queries, keys.transpose(-1, -2)) * math.sqrt(keys.size(-1))
