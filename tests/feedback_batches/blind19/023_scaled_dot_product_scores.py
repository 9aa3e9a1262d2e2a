import math

import torch


def scaled_dot_product_scores(queries, keys):
    scores = torch.matmul(queries, keys.transpose(-2, -1))
    return scores / math.sqrt(queries.shape[-2])
