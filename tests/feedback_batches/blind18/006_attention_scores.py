import torch


def attention_scores(inputs):
    centred = inputs - inputs.mean(dim=0)
    rows = [centred @ q for q in centred]
    return torch.stack(rows)
