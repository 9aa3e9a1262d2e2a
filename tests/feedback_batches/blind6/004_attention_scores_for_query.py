import torch


def attention_scores_for_query(inputs, query):
    scores = []
    for row in inputs:
        scores.append(torch.dot(row, query).item())
    return torch.tensor(scores)
