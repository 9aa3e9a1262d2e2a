import torch


def attention_scores_for_query(inputs, query):
    d = query.shape[0]
    scores = torch.matmul(inputs, query) / d
    return scores.float()
