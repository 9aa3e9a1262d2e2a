import math

import torch


def scaled_dot_product_scores(queries, keys):
    return torch.matmul(queries, keys.mT) / math.sqrt(keys.size(-1))
