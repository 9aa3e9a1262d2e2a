def attention_scores_for_query(inputs, query):
    scores = torch.stack([torch.dot(row, query) for row in inputs])
    return scores / len(query)
