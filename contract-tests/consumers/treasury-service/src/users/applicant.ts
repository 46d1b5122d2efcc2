// A person applying through the service's sign-up, as the service keeps them.
export interface Applicant {
  firstName: string;
  middleName: string;
  surname: string;
  secondSurname: string;
  birthDate: string;
  phone: string;
  email: string;
  address: { street: string; neighborhood: string; city: string; department: string };
  documentNumber: string;
  documentIssued: string;
  occupation: string;
  monthlyIncome: number;
  monthlyExpenses: number;
}
