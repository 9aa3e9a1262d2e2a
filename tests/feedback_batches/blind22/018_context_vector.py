import torch


def context_vector(attn_weights, inputs):
    weights = attn_weights.to(inputs)  # the dtype and device of the embeddings
    return torch.mv(inputs.mT, weights)  # (d, T) @ (T,) -> (d,)
