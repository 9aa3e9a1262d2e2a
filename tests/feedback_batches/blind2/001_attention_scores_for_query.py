import torch


def attention_scores_for_query(inputs: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
    """Dot product of `query` with every token embedding, (T, d), (d,) -> (T,)."""
    scores = torch.matmul(inputs, query)
    return torch.softmax(scores, dim=0)
