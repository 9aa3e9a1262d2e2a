import torch


def attention_scores(inputs):
    scores = inputs @ inputs.T
    return scores.softmax(dim=-1)
