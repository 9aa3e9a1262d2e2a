import math


def scaled_dot_product_scores(queries, keys):
    return (queries / math.sqrt(keys.shape[-1])) @ keys.mT
