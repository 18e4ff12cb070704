// The pagination envelope of every list and search (spec 2.1).
export interface PageRequest {
  page: number;
  per_page: number;
}

export interface Page<T> {
  page: number;
  per_page: number;
  count: number;
  total_records: number;
  total_pages: number;
  has_next: boolean;
  records: T[];
}

export const offsetOf = ({ page, per_page }: PageRequest): number => page * per_page;

export function toPage<T>(request: PageRequest, total: number, records: T[]): Page<T> {
  const totalPages = Math.ceil(total / request.per_page);
  return {
    page: request.page,
    per_page: request.per_page,
    count: records.length,
    total_records: total,
    total_pages: totalPages,
    has_next: request.page + 1 < totalPages,
    records,
  };
}
