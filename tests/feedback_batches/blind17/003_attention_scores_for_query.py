import torch


def attention_scores_for_query(inputs, query):
    column = query.unsqueeze(-1)  # (d, 1), a column vector as in the maths
    return torch.matmul(inputs, column)
