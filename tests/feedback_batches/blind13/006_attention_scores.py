import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # one row per query: attention_scores_for_query, batched over the queries by vmap
    every_query = torch.vmap(attention_scores_for_query, in_dims=(None, 0))
    return every_query(inputs, inputs)
