import torch


def attention_scores(inputs):
    return torch.stack([inputs @ token for token in inputs])
