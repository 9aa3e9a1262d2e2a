import torch.nn.functional as F


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    # queries, keys and values are all the embeddings themselves, and notebook 1 does not scale
    return F.scaled_dot_product_attention(inputs, inputs, inputs, scale=1.0)  # (T, d)
