import torch


def attention_scores(inputs):
    return inputs.T @ inputs
