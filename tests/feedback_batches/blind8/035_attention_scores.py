import torch


def attention_scores(inputs):
    T = inputs.shape[0]
    scores = torch.empty(T, T)
    for i in range(T):
        scores[i] = inputs @ inputs[i]
    return scores.T
