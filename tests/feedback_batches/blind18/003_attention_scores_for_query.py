import torch


def attention_scores_for_query(inputs, query):
    n = inputs.shape[1]
    scores = torch.empty(n)
    for i in range(n):
        scores[i] = torch.dot(inputs[i], query)
    return scores
