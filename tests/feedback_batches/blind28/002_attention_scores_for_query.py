def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    products = torch.mul(inputs, query)  # (T, d), query broadcast over the rows
    return products.sum(0) / query.numel()  # average so long vectors don't dominate
