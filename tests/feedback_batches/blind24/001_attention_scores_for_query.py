import torch


def attention_scores_for_query(inputs, query):
    # a row vector times the transposed matrix: (1, d) @ (d, T) -> (1, T), then drop the 1
    row = query.unsqueeze(0)
    return torch.matmul(row, inputs.mT).squeeze(0)
