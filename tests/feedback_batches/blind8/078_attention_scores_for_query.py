import torch


def attention_scores_for_query(inputs, query):
    # torch.func style: one dot product, vectorised over the rows
    return torch.func.vmap(torch.dot, in_dims=(0, None))(inputs, query)
