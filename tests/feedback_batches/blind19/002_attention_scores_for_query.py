import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding, (T, d), (d,) -> (T,)."""
    # an Einstein sum over the feature index d: one number per token t
    return torch.einsum("td,d->t", inputs, query)
