def attention_scores_for_query(inputs, query):
    return torch.einsum("td,d->t", inputs, query)
