import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    weights = softmax_stable(attention_scores(inputs), dim=-1)  # (T, T), one row per query
    every_query = torch.vmap(context_vector, in_dims=(0, None))  # context_vector for each row of weights
    return every_query(weights, inputs)
