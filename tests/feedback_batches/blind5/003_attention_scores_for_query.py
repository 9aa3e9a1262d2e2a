import torch


def attention_scores_for_query(inputs, query: torch.Tensor) -> torch.Tensor:
    """Dot product of `query` with every token embedding."""
    q = query.unsqueeze(-1)          # (d, 1) column vector, like in the maths
    return torch.matmul(inputs, q)   # (T, d) @ (d, 1)
