import torch


def context_vector(attn_weights, inputs):
    # the token with the largest weight is the one the query attends to
    return inputs[attn_weights.argmax()]
