import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding, (T, d), (d,) -> (T,)."""
    return torch.einsum("td,d->t", inputs, query)
