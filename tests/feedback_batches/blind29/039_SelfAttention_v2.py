class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        T = x.shape[0]
        queries = self.W_query(x)
        keys = self.W_key(x)
        values = self.W_value(x).detach()
        scores = queries @ keys.T * keys.shape[-1] ** 0.5
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))  # no peeking ahead
        return torch.softmax(scores, dim=-1) @ values
