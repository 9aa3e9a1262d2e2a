import torch


def attention_scores_for_query(inputs, query):
    values = list(map(lambda row: float((row * query).sum()), inputs))
    return torch.tensor(values, dtype=inputs.dtype)
