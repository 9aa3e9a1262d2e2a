import torch


def attention_scores(inputs):
    # how far apart every pair of tokens is, (T, T)
    return torch.cdist(inputs, inputs)
