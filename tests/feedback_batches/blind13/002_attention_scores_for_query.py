import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # map torch.dot over the rows of inputs; the query is shared by every row (in_dims=None)
    dot_every_row = torch.vmap(torch.dot, in_dims=(0, None))
    return dot_every_row(inputs, query)
