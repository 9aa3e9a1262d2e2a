def attention_scores_for_query(inputs, query):
    return (inputs @ query) / query.norm()
