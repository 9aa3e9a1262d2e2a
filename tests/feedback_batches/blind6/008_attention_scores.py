import torch
import math


def attention_scores(inputs):
    d = inputs.shape[-1]
    scores = inputs @ inputs.T / math.sqrt(d)
    return torch.softmax(scores, dim=-1)
