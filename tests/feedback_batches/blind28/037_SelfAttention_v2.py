class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, qkv_bias)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)

    def forward(self, x):
        q = self.W_query(x)
        k = self.W_key(x)
        v = x @ self.W_value.weight
        if self.W_value.bias is not None:
            v = v + self.W_value.bias
        w = torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1)
        return w @ v
