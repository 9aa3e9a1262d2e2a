import torch


def attention_scores_for_query(inputs, query):
    # (T, d) @ (d, 1): one dot product per row
    return inputs @ query.unsqueeze(1)
