class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def _weights_of_one_sequence(self, q, k):
        """(T, d) queries and keys of ONE sequence -> its (T, T) causal weights."""
        T = q.shape[0]
        scores = (q @ k.T) / k.shape[-1] ** 0.5
        scores = scores.masked_fill(~self.visible[:T, :T], float("-inf"))
        return torch.softmax(scores, dim=-1)

    def forward(self, x):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        # written for one sequence, mapped over the batch; dropout then sees the whole (b, T, T) batch
        weights = torch.vmap(self._weights_of_one_sequence)(queries, keys)
        return self.dropout(weights) @ values
