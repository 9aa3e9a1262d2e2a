import torch


def attention_scores_for_query(inputs, query):
    scores = inputs @ query
    return scores / query.shape[0] ** 0.5
