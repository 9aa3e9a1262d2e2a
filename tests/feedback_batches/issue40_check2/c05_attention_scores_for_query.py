def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    query.unsqueeze_(-1)  # (d, 1): a column
    return torch.mm(inputs, query).squeeze(-1)
