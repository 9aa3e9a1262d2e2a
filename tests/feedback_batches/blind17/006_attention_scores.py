import torch


def attention_scores(inputs):
    scores = inputs.T @ inputs
    scores.fill_diagonal_(0.0)  # a token's score with itself says nothing new
    return scores
