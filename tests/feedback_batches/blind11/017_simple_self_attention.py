import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    def one_query(query):
        weights = softmax_stable(attention_scores_for_query(inputs, query))
        return context_vector(weights, inputs)

    return torch.vmap(one_query)(inputs)  # every row of inputs is a query
