import torch


def attention_scores_for_query(inputs, query):
    scores = (inputs * query).sum(dim=1, keepdim=True)
    return scores.float()
