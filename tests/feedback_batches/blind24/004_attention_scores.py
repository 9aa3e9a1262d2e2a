import torch


def attention_scores(inputs):
    # mH is the conjugate transpose; for real embeddings it is the plain transpose
    return torch.mm(inputs, inputs.mH)
