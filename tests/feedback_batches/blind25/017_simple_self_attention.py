def simple_self_attention(inputs):
    def one_query(query):               # (d,) -> (d,): Steps 1, 3 and 4 for one token
        weights = softmax_stable(attention_scores_for_query(inputs, query))
        return context_vector(weights, inputs)
    # every token is a query: map the one-query computation over the rows
    return torch.vmap(one_query)(inputs)
