import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # the query as a row vector against the embeddings as columns: (d,) @ (d, T) -> (T,)
    return torch.matmul(query, inputs.mT)
