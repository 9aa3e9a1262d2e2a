def attention_scores_for_query(inputs, query):
    # the score is |a| |b| cos(theta), so divide by the length of the query
    products = inputs * query          # (T, d), the query broadcast over the rows
    scores = products.sum(dim=0)
    return scores / query.norm()
