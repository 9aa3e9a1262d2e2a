def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # a matrix-vector product is one dot product per row of the matrix
    return torch.mv(inputs, query)
