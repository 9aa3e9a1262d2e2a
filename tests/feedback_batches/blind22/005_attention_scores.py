import torch


def attention_scores(inputs):
    # mH is the conjugate transpose of the last two dims; for real tensors it is the transpose
    return torch.linalg.matmul(inputs, inputs.mH)
